// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface Application {
  'id'?: (string);
  'accountId'?: (number | string | Long);
  'name'?: (string);
  'voiceUrl'?: (string);
  'messagingUrl'?: (string);
  'environmentId'?: (number | string | Long);
  'apiType'?: (string);
  'partition'?: (string);
  'createdAt'?: (string);
  'updatedAt'?: (string);
  'voiceFallbackUrl'?: (string);
  'messagingFallbackUrl'?: (string);
  '_voiceUrl'?: "voiceUrl";
  '_messagingUrl'?: "messagingUrl";
  '_partition'?: "partition";
  '_voiceFallbackUrl'?: "voiceFallbackUrl";
  '_messagingFallbackUrl'?: "messagingFallbackUrl";
}

export interface Application__Output {
  'id': (string);
  'accountId': (string);
  'name': (string);
  'voiceUrl'?: (string);
  'messagingUrl'?: (string);
  'environmentId': (string);
  'apiType': (string);
  'partition'?: (string);
  'createdAt': (string);
  'updatedAt': (string);
  'voiceFallbackUrl'?: (string);
  'messagingFallbackUrl'?: (string);
  '_voiceUrl'?: "voiceUrl";
  '_messagingUrl'?: "messagingUrl";
  '_partition'?: "partition";
  '_voiceFallbackUrl'?: "voiceFallbackUrl";
  '_messagingFallbackUrl'?: "messagingFallbackUrl";
}
