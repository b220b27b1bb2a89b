import { Page } from '../ui/page.tsx';

export function ApplicationPage() {
  return (
    <Page title="Application">
      <p className="muted">Coming soon.</p>
    </Page>
  );
}
