import { Page } from '../ui/page.tsx';

export function WebhooksPage() {
  return (
    <Page title="Webhooks">
      <p className="muted">Coming soon.</p>
    </Page>
  );
}
