// A button that copies a value to the clipboard and says so in a status region.
import { useState } from 'react';

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied');
    } catch {
      setSaid('Copy failed: select the text and copy it');
    }
    setTimeout(() => setSaid(''), 3000);
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" className="status">
        {said}
      </span>
    </>
  );
}
