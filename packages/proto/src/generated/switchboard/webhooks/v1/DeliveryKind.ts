// Original file: proto/switchboard/webhooks/v1/webhooks.proto

export const DeliveryKind = {
  DELIVERY_KIND_UNSPECIFIED: 'DELIVERY_KIND_UNSPECIFIED',
  DELIVERY_KIND_SESSION: 'DELIVERY_KIND_SESSION',
  DELIVERY_KIND_NOTIFICATION: 'DELIVERY_KIND_NOTIFICATION',
} as const;

export type DeliveryKind =
  | 'DELIVERY_KIND_UNSPECIFIED'
  | 0
  | 'DELIVERY_KIND_SESSION'
  | 1
  | 'DELIVERY_KIND_NOTIFICATION'
  | 2

export type DeliveryKind__Output = typeof DeliveryKind[keyof typeof DeliveryKind]
