// Regenerates the TypeScript types of every .proto under proto/ into packages/proto/src/generated.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const protoDir = join(root, 'proto');
const outDir = join(root, 'packages/proto/src/generated');

function find(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.proto') ? [relative(protoDir, path)] : [];
  });
}

rmSync(outDir, { recursive: true, force: true });
execFileSync(
  join(root, 'node_modules/.bin/proto-loader-gen-types'),
  // Imports carry the .ts extension, as everywhere in src/ (the build rewrites them to .js).
  [
    '--longs=String',
    '--enums=String',
    '--defaults',
    '--oneofs',
    '--keepCase=false',
    '--importFileExtension=.ts',
    '--includeDirs',
    protoDir,
    '--outDir',
    outDir,
    '--grpcLib',
    '@grpc/grpc-js',
    ...find(protoDir),
  ],
  { stdio: 'inherit', cwd: protoDir },
);
// Keep generated headers free of machine-specific absolute paths.
execFileSync(
  'sh',
  ['-c', `grep -rl "Original file: " . | xargs sed -i "s#Original file: .*/proto/#Original file: proto/#"`],
  { cwd: outDir },
);
