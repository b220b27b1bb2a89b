// The application rows both baselines read (applications.applications) and the JSON they answer for
// one, in the API's shape, with links under `base`.
export type ApplicationRow = {
  id: string;
  account_id: string;
  name: string;
  voice_url: string | null;
  messaging_url: string | null;
  environment_id: string;
  api_type: string;
};

export const applicationJson = (base: string, a: ApplicationRow) => ({
  href: `${base}/rest/v1/applications/${a.id}`,
  id: a.id,
  name: a.name,
  ...(a.voice_url ? { voiceUrl: a.voice_url } : {}),
  ...(a.messaging_url ? { messagingUrl: a.messaging_url } : {}),
  environment: `${base}/rest/v1/environments/${a.environment_id}`,
  apiType: a.api_type,
  platform: a.api_type,
  userId: Number(a.account_id),
  user: `${base}/rest/v1/users/${a.account_id}`,
});
