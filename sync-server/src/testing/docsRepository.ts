/**
 * Documentation repositories in the git sync layout (`SUMMARY.md`, GitBook-flavoured
 * pages, `.gitbook/assets/`), made here so tests and benchmarks need no network.
 */

/** A 1×1 PNG; `variant` appends bytes so each image has its own content. */
export function png(variant = 0): Uint8Array {
  const base = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  return new Uint8Array(variant ? Buffer.concat([base, Buffer.from(String(variant))]) : base);
}

function svg(label: string): Uint8Array {
  return new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><title>${label}</title></svg>`);
}

const text = (s: string | string[]) => new TextEncoder().encode(Array.isArray(s) ? `${s.join('\n')}\n` : s);

/**
 * A repository with each case a real one has: group headings with HTML anchors, an
 * anchor entry in SUMMARY, links with fragments, asset names with spaces, parentheses
 * and percent-encoding in `<img src>`, `<picture><source srcset>`, `<figure>`, markdown
 * images and file links, blocks inside HTML and inside block tags, an include of
 * reusable content, aligned tables, front matter (`description`, `icon`, `cover`,
 * `layout`, `hidden`, an emoji as `icon`), an entity in a SUMMARY title, and things no node maps (an unknown tag, a missing image).
 */
export function handWrittenRepository(): Record<string, Uint8Array> {
  return {
    'SUMMARY.md': text([
      '# Table of contents',
      '',
      '* [Introduction](README.md)',
      '',
      '## Get Started <a href="#getting-started" id="getting-started"></a>',
      '',
      '* [Quickstart](getting-started/quickstart.md)',
      '* [Installation](getting-started/installation/README.md)',
      '  * [On Linux](getting-started/installation/linux.md)',
      '* [Account settings](account/settings.md)',
      '  * [Billing](account/settings.md#billing)',
      '',
      '## Git Sync &#x26; Backups <a href="#git-sync" id="git-sync"></a>',
      '',
      '* [Troubleshooting](git-sync/troubleshooting.md)',
      '* [Changelog](<git-sync/change log.md>)',
      '',
      '***',
      '',
      '* [Status page](https://status.example.com)',
    ]),
    'README.md': text([
      '---',
      'description: Everything about Acme, from the first login to Git Sync.',
      'icon: hand-wave',
      'cover: .gitbook/assets/cover (1).png',
      'coverY: 40',
      'layout:',
      '  title:',
      '    visible: true',
      '  description:',
      '    visible: true',
      '---',
      '',
      '# Welcome to Acme',
      '',
      '<picture><source srcset=".gitbook/assets/icon_dark (1).svg" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/icon_light.svg" alt="Acme"></picture>',
      '',
      'Start with the [quickstart](getting-started/quickstart.md), or read about [duplicated accounts](git-sync/troubleshooting.md#duplicated-accounts) and [billing](account/settings.md#billing).',
    ]),
    'getting-started/quickstart.md': text([
      '---',
      'description: Up and running in five minutes.',
      '---',
      '',
      '# Quickstart',
      '',
      '{% columns %}',
      '{% column width="50%" %}',
      '### Sign up',
      '',
      'Create an account, then <a href="installation/" class="button primary">install the app</a>.',
      '{% endcolumn %}',
      '',
      '{% column %}',
      '<figure><img src="../.gitbook/assets/sign up (2).png" alt="The sign-up form"><figcaption><p>The sign-up form</p></figcaption></figure>',
      '{% endcolumn %}',
      '{% endcolumns %}',
      '',
      '![Dark icon](../.gitbook/assets/icon%20dark%20(1).svg)',
      '',
      '{% hint style="warning" %}',
      'Keep your token secret. See [settings](../account/settings.md#tokens).',
      '{% endhint %}',
      '',
      '{% tabs %}',
      '{% tab title="npm" %}',
      '{% code title="install.sh" lineNumbers="true" %}',
      '```bash',
      'npm install -g acme',
      '```',
      '{% endcode %}',
      '{% endtab %}',
      '',
      '{% tab title="Homebrew" %}',
      '```bash',
      'brew install acme',
      '```',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% stepper %}',
      '{% step %}',
      '### Log in',
      '',
      'Run `acme login`.',
      '{% endstep %}',
      '',
      '{% step %}',
      '### Deploy',
      '',
      'Run `acme deploy`.',
      '{% endstep %}',
      '{% endstepper %}',
      '',
      '| Plan | Seats | Price |',
      '| :--- | :---: | ---: |',
      '| Free | 1 | $0 |',
      '| Team | 10 | $99 |',
      '',
      '{% content-ref url="installation/" %}',
      '[installation](installation/)',
      '{% endcontent-ref %}',
      '',
      '{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}',
      'A three minute tour',
      '{% endembed %}',
      '',
      'Download the [manual](<../.gitbook/assets/manual (v2).pdf>).',
      '',
      '{% file src="../.gitbook/assets/manual (v2).pdf" %}',
      'The manual',
      '{% endfile %}',
      '',
      '{% include "../.gitbook/includes/support.md" %}',
    ]),
    'getting-started/installation/README.md': text([
      '# Installation',
      '',
      '<div align="center"><img src="../../.gitbook/assets/banner wide.png" alt="Banner" width="600"></div>',
      '',
      '<pre><code>&#x3C;acme-config>',
      '  &#x3C;region>eu&#x3C;/region>',
      '&#x3C;/acme-config>',
      '</code></pre>',
      '',
      'The load is $$\\lambda = 2$$ per second.',
      '',
      '$$',
      'f(x) = x^2',
      '$$',
    ]),
    'getting-started/installation/linux.md': text([
      '---',
      'icon: 🐧',
      'hidden: true',
      '---',
      '',
      '# On Linux',
      '',
      '<p align="center">Tested on <mark>Debian</mark> and Fedora.</p>',
      '',
      '{% tooltip text="x" %}',
      '',
      '```mermaid',
      'graph LR; A-->B;',
      '```',
    ]),
    'account/settings.md': text([
      '# Account settings',
      '',
      '## Billing <a href="#billing" id="billing"></a>',
      '',
      'Invoices are sent monthly.',
      '',
      '## Tokens',
      '',
      'Create one under **Settings**.',
    ]),
    'git-sync/troubleshooting.md': text([
      '# Troubleshooting',
      '',
      '## Duplicated accounts <a href="#duplicated-accounts" id="duplicated-accounts"></a>',
      '',
      'Merge them from [the settings](../account/settings.md), then go [back home](../README.md).',
      '',
      '![Old screenshot](../.gitbook/assets/missing.png)',
    ]),
    'git-sync/change log.md': text([
      '# Changelog',
      '',
      '{% updates %}',
      '{% update date="2024-03-01" title="Git Sync 2" %}',
      'Faster syncs.',
      '{% endupdate %}',
      '{% endupdates %}',
      '',
      '{% openapi src="../.gitbook/assets/openapi.yaml" path="/pets" method="get" %}',
      '[openapi.yaml](../.gitbook/assets/openapi.yaml)',
      '{% endopenapi %}',
    ]),
    '.gitbook/includes/support.md': text(['---', 'title: Support contact', '---', '', 'Write to **support@acme.test**.']),
    '.gitbook/assets/cover (1).png': png(1),
    '.gitbook/assets/icon_dark (1).svg': svg('dark'),
    '.gitbook/assets/icon_light.svg': svg('light'),
    '.gitbook/assets/icon dark (1).svg': svg('dark, spaced'),
    '.gitbook/assets/sign up (2).png': png(2),
    '.gitbook/assets/banner wide.png': png(3),
    '.gitbook/assets/manual (v2).pdf': text('%PDF-1.4 the manual'),
    '.gitbook/assets/openapi.yaml': text('openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}'),
  };
}

/**
 * A generated repository of `pages` pages in `groups` groups (nested two deep), each page
 * linking to two others (one with a fragment) and showing images from a pool of `images`.
 */
export function generatedRepository(opts: {
  pages: number;
  images: number;
  groups?: number;
  imageBytes?: number;
}): Record<string, Uint8Array> {
  const groups = opts.groups ?? 12;
  const files: Record<string, Uint8Array> = {};
  const summary = ['# Table of contents', ''];
  const paths: string[] = [];
  for (let i = 0; i < opts.pages; i++) {
    const group = i % groups;
    paths.push(i % 5 === 0 ? `group-${group}/topic-${i}/README.md` : `group-${group}/topic-${i - (i % 5)}/page ${i}.md`);
  }
  for (let g = 0; g < groups; g++) {
    summary.push('', `## Group ${g} <a href="#group-${g}" id="group-${g}"></a>`, '');
    paths.forEach((path, i) => {
      if (i % groups !== g) return;
      const nested = !path.endsWith('README.md') && paths.includes(path.replace(/[^/]+$/, 'README.md'));
      summary.push(`${nested ? '  ' : ''}* [Page ${i}](<${path}>)`);
    });
  }
  files['SUMMARY.md'] = text(summary);
  const imageBytes = opts.imageBytes ?? 2048;
  for (let n = 0; n < opts.images; n++) {
    const bytes = new Uint8Array(imageBytes);
    bytes.set(png(n + 1).subarray(0, Math.min(imageBytes, 80)));
    for (let b = 80; b < imageBytes; b++) bytes[b] = (n * 31 + b) % 251;
    files[`.gitbook/assets/image (${n}).png`] = bytes;
  }
  paths.forEach((path, i) => {
    const depth = path.split('/').length - 1;
    const up = '../'.repeat(depth);
    const other = paths[(i * 7 + 3) % paths.length] as string;
    const next = paths[(i + 1) % paths.length] as string;
    const image = (k: number) => `${up}.gitbook/assets/image%20(${(i * 2 + k) % Math.max(1, opts.images)}).png`;
    const body = [
      `# Page ${i}`,
      '',
      `An introduction to topic ${i}, with a link to [page ${(i * 7 + 3) % paths.length}](<${up}${other}>) and to [the next one](<${up}${next}#details>).`,
      '',
      ...(opts.images
        ? [
            `![Screenshot ${i}](${image(0)})`,
            '',
            `<figure><img src="${image(1)}" alt=""><figcaption><p>Figure ${i}</p></figcaption></figure>`,
            '',
          ]
        : []),
      '## Details',
      '',
      '{% hint style="info" %}',
      `Details of topic ${i}: ${'lorem ipsum dolor sit amet '.repeat(12).trim()}.`,
      '{% endhint %}',
      '',
      '| Option | Default |',
      '| :--- | ---: |',
      '| `retries` | 3 |',
      '',
      '```js',
      `console.log(${i});`,
      '```',
    ];
    files[path] = text(body);
  });
  return files;
}
