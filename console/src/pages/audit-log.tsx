import { Page } from '../ui/page.tsx';

export function AuditLogPage() {
  return (
    <Page title="Audit log">
      <p className="muted">Coming soon.</p>
    </Page>
  );
}
