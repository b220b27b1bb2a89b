// API keys, browser sessions of the console, and the audit log. Of keys and sessions only a keyed hash (HMAC-SHA-256 under a key derived
// from SECRETS_KEY) of each key or session token is stored, looked up by a unique index.
import { SchemaMigration } from '@switchboard/db';

export class Migration007Credentials extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table api_keys (
        id text collate "C" primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        name text not null,
        scope text not null check (scope in ('full', 'read')),
        prefix text not null,
        key_hash bytea not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz
      );
      create index api_keys_account on api_keys (account_id, created_at);
      create table console_sessions (
        id text collate "C" primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        token_hash bytea not null unique,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        last_seen_at timestamptz not null default now()
      );
      create index console_sessions_account on console_sessions (account_id);
      create table audit_events (
        id bigserial primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        at timestamptz not null default now(),
        actor_type text not null check (actor_type in ('password', 'key', 'session')),
        actor_id text not null,
        actor_name text,
        action text not null,
        target text not null default '',
        ip text not null default '',
        request_id text not null default '',
        outcome text not null check (outcome in ('success', 'failure'))
      );
      create index audit_events_account on audit_events (account_id, id desc);
      create index audit_events_at on audit_events (at);
    `);
  }
}
