// Data migrations that need SECRETS_KEY: initOrm hands each SecretsMigration of a service's list the
// service's key, so these run with the same key as the service (at start, in the release Job, in the
// account command, which may have none).
import type { MigrationObject } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SecretBox } from '@switchboard/security';
import { sql } from './sql.ts';

export abstract class SecretsMigration extends Migration {
  /** Set by withSecretsKey; undefined where the process has no SECRETS_KEY (the account command). */
  protected box: SecretBox | undefined;

  useKey(box: SecretBox | undefined): this {
    this.box = box;
    return this;
  }

  /** Runs a statement (`$1` parameters, as everywhere: docs/data-access.md) in the migration's transaction. */
  protected query<R = Record<string, unknown>>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    return sql<R>(this.getEntityManager() as EntityManager, text, values);
  }

  /** `name` qualified with this service's schema. */
  protected table(name: string): string {
    const schema = this.config.get('schema');
    if (!schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${String(schema)}`);
    return `"${schema}".${name}`;
  }

  /** The key, or a clear stop when there is data to seal and the process was started without one. */
  protected requireBox(what: string): SecretBox {
    if (!this.box) throw new Error(`SECRETS_KEY is required to migrate ${what}: set it as for the service`);
    return this.box;
  }

  /**
   * Seals every value of `columns` in `table` still in plaintext (rows written before secrets were
   * encrypted), with the row's `ownerColumn` as associated data. Returns the number of rows changed.
   */
  protected async sealPlaintext(table: string, ownerColumn: string, columns: string[]): Promise<number> {
    const unsealed = columns.map((c) => `(${c} is not null and ${c} not like 'enc:v1:%')`).join(' or ');
    const rows = await this.query<Record<string, string | null>>(
      `select ${ownerColumn} as owner, ${columns.join(', ')} from ${this.table(table)} where ${unsealed} for update`,
    );
    if (rows.length === 0) return 0;
    const box = this.requireBox(`the plaintext secrets in ${table}`);
    for (const row of rows) {
      const owner = String(row.owner);
      const values = columns.map((c) => {
        const v = row[c];
        return v === null || v === undefined || SecretBox.isSealed(v) ? v : box.seal(v, owner);
      });
      await this.query(
        `update ${this.table(table)} set ${columns.map((c, i) => `${c} = $${i + 1}`).join(', ')} where ${ownerColumn} = $${columns.length + 1}`,
        [...values, owner],
      );
    }
    return rows.length;
  }
}

/**
 * The migrations list with `box` handed to each SecretsMigration (the others pass unchanged). The
 * migrator calls `new` with (driver, config): a constructor function that returns the keyed instance.
 */
export function withSecretsKey(list: MigrationObject[], box: SecretBox | undefined): MigrationObject[] {
  return list.map(({ name, class: Base }) => {
    if (!(Base.prototype instanceof SecretsMigration)) return { name, class: Base };
    const Secrets = Base as unknown as new (...args: ConstructorParameters<typeof Migration>) => SecretsMigration;
    function Keyed(...args: ConstructorParameters<typeof Migration>): SecretsMigration {
      return new Secrets(...args).useKey(box);
    }
    return { name, class: Keyed as unknown as MigrationObject['class'] };
  });
}
