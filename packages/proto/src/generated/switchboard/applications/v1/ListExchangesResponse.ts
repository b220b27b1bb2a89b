// Original file: proto/switchboard/applications/v1/applications.proto

import type { Exchange as _switchboard_applications_v1_Exchange, Exchange__Output as _switchboard_applications_v1_Exchange__Output } from '../../../switchboard/applications/v1/Exchange.ts';

export interface ListExchangesResponse {
  'exchanges'?: (_switchboard_applications_v1_Exchange)[];
}

export interface ListExchangesResponse__Output {
  'exchanges': (_switchboard_applications_v1_Exchange__Output)[];
}
