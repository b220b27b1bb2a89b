// Original file: proto/switchboard/applications/v1/applications.proto

import type { Long } from '@grpc/proto-loader';

export interface UpdateApplicationRequest {
  'accountId'?: (number | string | Long);
  'id'?: (string);
  'name'?: (string);
  'voiceUrl'?: (string);
  'messagingUrl'?: (string);
  'environmentId'?: (number | string | Long);
  'apiType'?: (string);
  'partition'?: (string);
  'voiceFallbackUrl'?: (string);
  'messagingFallbackUrl'?: (string);
  '_name'?: "name";
  '_voiceUrl'?: "voiceUrl";
  '_messagingUrl'?: "messagingUrl";
  '_environmentId'?: "environmentId";
  '_apiType'?: "apiType";
  '_partition'?: "partition";
  '_voiceFallbackUrl'?: "voiceFallbackUrl";
  '_messagingFallbackUrl'?: "messagingFallbackUrl";
}

export interface UpdateApplicationRequest__Output {
  'accountId': (string);
  'id': (string);
  'name'?: (string);
  'voiceUrl'?: (string);
  'messagingUrl'?: (string);
  'environmentId'?: (string);
  'apiType'?: (string);
  'partition'?: (string);
  'voiceFallbackUrl'?: (string);
  'messagingFallbackUrl'?: (string);
  '_name'?: "name";
  '_voiceUrl'?: "voiceUrl";
  '_messagingUrl'?: "messagingUrl";
  '_environmentId'?: "environmentId";
  '_apiType'?: "apiType";
  '_partition'?: "partition";
  '_voiceFallbackUrl'?: "voiceFallbackUrl";
  '_messagingFallbackUrl'?: "messagingFallbackUrl";
}
