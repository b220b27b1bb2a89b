import { Page } from '../ui/page.tsx';

export function SessionsPage() {
  return (
    <Page title="Sessions">
      <p className="muted">Coming soon.</p>
    </Page>
  );
}
