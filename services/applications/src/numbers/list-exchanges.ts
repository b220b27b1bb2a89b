import type { Deps } from '../context.ts';
import { readExchanges, type ExchangeRow } from '../addresses/repository.ts';
import { EXCHANGE_DIGITS } from './e164.ts';

/** The exchanges that have free numbers: prefix (see EXCHANGE_DIGITS) with city, state and country. */
export async function listExchanges(deps: Deps): Promise<ExchangeRow[]> {
  return readExchanges(deps.orm.em, EXCHANGE_DIGITS);
}
