// Where deliveries go: application URLs and the owners of dialled addresses (applications
// service) and matching subscriptions with their secrets (webhooks service), all over gRPC behind
// a cache. Change events on NATS (applications.changed / applications.deleted / addresses.changed /
// webhooks.changed) invalidate entries at once; the TTL is a safety net for a missed event.
import type { DialledAddress } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import { followChanges, type NatsConnection } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import type { Logger } from '@switchboard/observability';
import type {
  AddressesClient,
  ApplicationsClient,
  MatchedSubscriptionMessage,
  WebhooksClient,
} from '@switchboard/proto';
import { TaggedCache } from './tagged-cache.ts';
import { secretKey } from '../delivery/signing.ts';
import { parseSettings, type SubscriptionSettings } from '../delivery/subscription-settings.ts';

export interface ApplicationTarget {
  id: string;
  accountId: string;
  voiceUrl: string | null;
  messagingUrl: string | null;
  voiceFallbackUrl: string | null;
  messagingFallbackUrl: string | null;
  /**
   * HMAC keys of the application's session secrets: the current one and, during a rotation, the
   * previous one. Empty when the application has no usable secret (its sessions fail).
   */
  keys: Buffer[];
}

export interface SubscriptionTarget {
  id: string;
  accountId: string;
  applicationId: string | null;
  name: string | null;
  targetUrl: string;
  payload: unknown;
  /** HMAC keys of the current secret and, during a rotation, the previous one. */
  keys: Buffer[];
  /** The subscription's custom headers, sent with every attempt (never logged or recorded). */
  headers: Record<string, string>;
  /** Its delivery settings (timeout, ordering, rate limit, endpoint authentication), secrets in clear. */
  settings: SubscriptionSettings;
  /** Its recoveries cancelled within a day (subscriptionTarget only): their resends are not sent. */
  cancelledRecoveries?: string[];
}

/** The owner of a dialled address. */
export interface AddressOwner {
  applicationId: string;
  accountId: string;
}

export interface MatchQuery {
  accountId: string;
  applicationId: string | null;
  event: string;
  resource: string;
}

const LOOKUP_TIMEOUT_MS = 3000;

/**
 * Whether a lookup failed because the service behind it is away (or failing), not because of the
 * request: the job or event waits and comes back, it is never dropped. The one place that decides.
 */
export function isLookupUnavailable(err: unknown): boolean {
  return err instanceof AppError && (err.code === 'unavailable' || err.code === 'internal');
}

export class Lookups {
  private readonly apps: TaggedCache<ApplicationTarget | null>;
  private readonly matches: TaggedCache<SubscriptionTarget[]>;
  private readonly targets: TaggedCache<(SubscriptionTarget & { enabled: boolean }) | null>;
  private readonly owners: TaggedCache<AddressOwner | null>;

  constructor(
    private readonly applications: ApplicationsClient,
    private readonly webhooks: WebhooksClient,
    private readonly addresses: AddressesClient,
    ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.apps = new TaggedCache(ttlMs);
    this.matches = new TaggedCache(ttlMs);
    this.targets = new TaggedCache(ttlMs);
    this.owners = new TaggedCache(ttlMs);
  }

  /**
   * The application that owns a dialled address, or null when nobody does (cached too, until the
   * address is claimed). Throws AppError('unavailable') when the service is down.
   */
  addressOwner(dialled: DialledAddress): Promise<AddressOwner | null> {
    const key = addressTag(dialled.type, dialled.address);
    return this.owners.get(key, [key], async () => {
      try {
        const res = await this.addresses.resolveAddress({ address: dialled.address }, { timeoutMs: LOOKUP_TIMEOUT_MS });
        // A deleted application's addresses are announced released (addresses.changed) with it.
        return res.applicationId ? { applicationId: res.applicationId, accountId: String(res.accountId) } : null;
      } catch (err) {
        if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid_request')) return null;
        throw err;
      }
    });
  }

  /** The application, or null when it does not exist. Throws AppError('unavailable') when the service is down. */
  application(id: string): Promise<ApplicationTarget | null> {
    return this.apps.get(id, [`app:${id}`], async () => {
      try {
        const res = await this.applications.lookupApplication({ id }, { timeoutMs: LOOKUP_TIMEOUT_MS });
        const a = res.application;
        if (!a) return null;
        return {
          id: a.id,
          accountId: String(a.accountId),
          voiceUrl: a.voiceUrl || null,
          messagingUrl: a.messagingUrl || null,
          voiceFallbackUrl: a.voiceFallbackUrl || null,
          messagingFallbackUrl: a.messagingFallbackUrl || null,
          keys: this.keysOf(res.signingSecrets, { applicationId: a.id }),
        };
      } catch (err) {
        if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid_request')) return null;
        throw err;
      }
    });
  }

  /** Enabled subscriptions that an event must reach (account-level and application-level). */
  subscriptions(q: MatchQuery): Promise<SubscriptionTarget[]> {
    const key = `${q.accountId}|${q.applicationId ?? ''}|${q.event}|${q.resource}`;
    const tags = [`account:${q.accountId}`, ...(q.applicationId ? [`app:${q.applicationId}`] : [])];
    return this.matches.get(key, tags, async () => {
      const res = await this.webhooks.matchSubscriptions(
        { accountId: q.accountId, applicationId: q.applicationId ?? '', event: q.event, resource: q.resource },
        { timeoutMs: LOOKUP_TIMEOUT_MS },
      );
      return res.subscriptions.flatMap((m) => {
        const t = this.targetOf(m);
        return t?.enabled ? [t] : [];
      });
    });
  }

  /**
   * One subscription by id, enabled or not (test sends and resends name it), or null when it does
   * not exist or has no usable secret. Throws AppError('unavailable') when the service is down.
   */
  subscriptionTarget(
    accountId: string,
    subscriptionId: string,
  ): Promise<(SubscriptionTarget & { enabled: boolean }) | null> {
    return this.targets.get(`${accountId}|${subscriptionId}`, [`account:${accountId}`], async () => {
      try {
        return this.targetOf(
          await this.webhooks.getDeliveryTarget({ accountId, subscriptionId }, { timeoutMs: LOOKUP_TIMEOUT_MS }),
        );
      } catch (err) {
        if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid_request')) return null;
        throw err;
      }
    });
  }

  /** Where a matched subscription is sent, with its keys; null (logged) when it has no usable secret. */
  private targetOf(m: MatchedSubscriptionMessage): (SubscriptionTarget & { enabled: boolean }) | null {
    const s = m.subscription;
    if (!s) return null;
    const keys = this.keysOf(m.secrets, { subscriptionId: s.id });
    if (keys.length === 0) {
      this.logger.error({ subscriptionId: s.id }, 'subscription has no usable secret; not delivered');
      return null;
    }
    let payload: unknown = null;
    if (s.payloadJson) {
      try {
        payload = JSON.parse(s.payloadJson);
      } catch {
        payload = null;
      }
    }
    return {
      id: s.id,
      accountId: String(s.accountId),
      applicationId: s.applicationId || null,
      name: s.name ?? null,
      targetUrl: s.targetUrl,
      payload,
      keys,
      headers: m.headers ?? {},
      settings: parseSettings(m.settingsJson),
      cancelledRecoveries: m.cancelledRecoveries ?? [],
      enabled: s.enabled,
    };
  }

  /** HMAC keys of `whsec_` secrets; a secret that is not one is logged (never its value) and skipped. */
  private keysOf(secrets: readonly string[], owner: { applicationId: string } | { subscriptionId: string }): Buffer[] {
    const keys: Buffer[] = [];
    for (const secret of secrets) {
      try {
        keys.push(secretKey(secret));
      } catch {
        this.logger.error(owner, 'signing secret is not a whsec_ secret; skipped');
      }
    }
    return keys;
  }

  /**
   * The subscription as it is now (enabled or not), or null when it no longer exists; read afresh,
   * only for a retry whose subscription no longer matches, a rare path. Throws AppError('unavailable')
   * when the service is down.
   */
  async currentSubscription(
    accountId: string,
    id: string,
  ): Promise<{ enabled: boolean; targetUrl: string; applicationId: string | null } | null> {
    try {
      const { subscription: s } = await this.webhooks.getSubscription(
        { accountId, id, applicationId: '' },
        { timeoutMs: LOOKUP_TIMEOUT_MS },
      );
      return s ? { enabled: s.enabled, targetUrl: s.targetUrl, applicationId: s.applicationId || null } : null;
    } catch (err) {
      if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid_request')) return null;
      throw err;
    }
  }

  /** Invalidation from change events (CONTRACTS: applications.*, addresses.changed, webhooks.changed). */
  onChange(
    subject: string,
    body: { applicationId?: unknown; accountId?: unknown; subscriptionId?: unknown; type?: unknown; address?: unknown },
  ): void {
    const appId = typeof body.applicationId === 'string' && body.applicationId ? body.applicationId : undefined;
    const accountId =
      typeof body.accountId === 'string' || typeof body.accountId === 'number' ? String(body.accountId) : undefined;
    if (subject.startsWith('applications.')) {
      if (appId) {
        this.apps.invalidateTag(`app:${appId}`);
        this.matches.invalidateTag(`app:${appId}`);
      } else this.clear();
    } else if (subject === SUBJECTS.addressesChanged) {
      // Claimed, moved or released: the address's entry goes, a cached "nobody" included.
      if (typeof body.type === 'string' && typeof body.address === 'string')
        this.owners.invalidateTag(addressTag(body.type, body.address));
      else this.owners.clear();
    } else if (subject === 'webhooks.changed') {
      // An account-level subscription affects every application of the account.
      if (accountId) {
        this.matches.invalidateTag(`account:${accountId}`);
        this.targets.invalidateTag(`account:${accountId}`);
      } else {
        this.matches.clear();
        this.targets.clear();
      }
    }
  }

  clear(): void {
    this.apps.clear();
    this.matches.clear();
    this.targets.clear();
    this.owners.clear();
  }

  /**
   * Listens to change events with a core subscription (JetStream-captured subjects reach core
   * subscribers too). Events missed while disconnected are covered by clearing on reconnect.
   */
  listen(nc: NatsConnection): () => void {
    return followChanges(
      nc,
      ['applications.changed', 'applications.deleted', SUBJECTS.addressesChanged, 'webhooks.changed'],
      (subject, body) => this.onChange(subject, body),
      () => this.clear(),
    );
  }
}

/** Cache key and tag of an address: the type and the stored form that addresses.changed names. */
function addressTag(type: string, address: string): string {
  return `address:${type}:${address}`;
}
