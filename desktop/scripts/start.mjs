// Starts the desktop app with the Electron binary, which the install does not download
// (the server must install on machines that cannot reach Electron's release host).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function electronBinary() {
  let pkgDir;
  try {
    pkgDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { missing: 'package' };
  }
  const binary = () => {
    try {
      const path = require('electron');
      return typeof path === 'string' && existsSync(path) ? path : null;
    } catch {
      return null;
    }
  };
  let path = binary();
  if (!path) {
    console.log('Downloading the Electron binary…');
    const result = spawnSync(process.execPath, [join(pkgDir, 'install.js')], {
      stdio: 'inherit',
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
    });
    if (result.status === 0) {
      delete require.cache[require.resolve('electron')];
      path = binary();
    }
  }
  return path ? { path } : { missing: 'binary' };
}

const found = electronBinary();
if (!found.path) {
  console.error(
    [
      found.missing === 'package'
        ? 'Electron is not installed (it is optional, so the server installs without it).'
        : 'The Electron binary is not available and could not be downloaded.',
      'To run the desktop app:',
      found.missing === 'package'
        ? '  - with internet access: npm install electron -w desktop, then npm run desktop again;'
        : '  - with internet access to github.com: npm run desktop again (it downloads Electron);',
      '  - or without Electron: npm run desktop:web opens the same app in your browser.',
    ].join('\n'),
  );
  process.exit(1);
}
const child = spawn(found.path, ['.'], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
