import { Page } from '../ui/page.tsx';

export function ApiKeysPage() {
  return (
    <Page title="API keys">
      <p className="muted">Coming soon.</p>
    </Page>
  );
}
