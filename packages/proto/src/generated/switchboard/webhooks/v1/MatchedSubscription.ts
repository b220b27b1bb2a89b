// Original file: proto/switchboard/webhooks/v1/webhooks.proto

import type { Subscription as _switchboard_webhooks_v1_Subscription, Subscription__Output as _switchboard_webhooks_v1_Subscription__Output } from '../../../switchboard/webhooks/v1/Subscription.ts';

export interface MatchedSubscription {
  'subscription'?: (_switchboard_webhooks_v1_Subscription | null);
  'secrets'?: (string)[];
  'headers'?: ({[key: string]: string});
  'settingsJson'?: (string);
  'cancelledRecoveries'?: (string)[];
  '_settingsJson'?: "settingsJson";
}

export interface MatchedSubscription__Output {
  'subscription': (_switchboard_webhooks_v1_Subscription__Output | null);
  'secrets': (string)[];
  'headers': ({[key: string]: string});
  'settingsJson'?: (string);
  'cancelledRecoveries': (string)[];
  '_settingsJson'?: "settingsJson";
}
