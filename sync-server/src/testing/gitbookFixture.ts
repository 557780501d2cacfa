import { png } from './docsRepository';

/**
 * A repository as GitBook's git sync leaves it, made by hand for the round-trip tests: a
 * `.gitbook.yaml` with a content root and redirects, code beside the docs, 35 pages in
 * nested folders with front matter, hints, tabs, tables, figures with and without
 * captions, code blocks, HTML images, content-refs, links with fragments across folders, an
 * expandable whose summary shows a `<picture>`, and assets with spaces in their names.
 */
export function gitbookFixture(): Record<string, Uint8Array> {
  const files: Record<string, string | Uint8Array> = {
    '.gitbook.yaml': [
      'root: ./docs/',
      '',
      'structure:',
      '  readme: README.md',
      '  summary: SUMMARY.md',
      '',
      'redirects:',
      '  setup/install: getting-started/installation/README.md',
      '  api/v1: reference/api/README.md',
      '',
    ].join('\n'),
    'package.json': '{\n  "name": "acme",\n  "private": true\n}\n',
    'src/index.js': "console.log('acme');\n",
    'docs/.gitbook/includes/support.md': '---\ntitle: Support contact\n---\n\nWrite to **support@acme.test**, we answer within a day.\n',
    'docs/.gitbook/assets/logo.png': png(101),
    'docs/.gitbook/assets/logo-dark.png': png(102),
    'docs/.gitbook/assets/image (1).png': png(103),
    'docs/.gitbook/assets/image (2).png': png(104),
    'docs/.gitbook/assets/Screenshot 2024-05-02 at 10.14.22.png': png(105),
    'docs/.gitbook/assets/architecture.png': png(106),
    'docs/.gitbook/assets/unused diagram.png': png(107),
  };

  const sections: { folder: string; title: string; group?: string; pages: string[] }[] = [
    {
      folder: 'getting-started',
      title: 'Getting started',
      group: 'getting-started',
      pages: ['quickstart', 'installation', 'configuration', 'first-project'],
    },
    { folder: 'guides', title: 'Guides', group: 'guides', pages: ['deploying', 'monitoring', 'scaling', 'backups', 'migrating'] },
    { folder: 'integrations', title: 'Integrations', group: 'integrations', pages: ['slack', 'github', 'jira', 'webhooks'] },
    { folder: 'reference/api', title: 'API reference', pages: ['authentication', 'projects', 'deployments', 'errors', 'rate-limits'] },
    { folder: 'reference/cli', title: 'CLI reference', pages: ['acme-login', 'acme-deploy', 'acme-logs'] },
    {
      folder: 'administration',
      title: 'Administration',
      group: 'administration',
      pages: ['users', 'roles', 'sso', 'audit-log', 'billing'],
    },
    { folder: 'troubleshooting', title: 'Troubleshooting', group: 'troubleshooting', pages: ['common-errors', 'faq'] },
  ];

  const summary = ['# Table of contents', '', '* [Welcome](README.md)', '* [Changelog](changelog.md)'];
  let n = 0;
  const all: string[] = [];
  for (const s of sections) {
    if (s.group) summary.push('', `## ${s.title} <a href="#${s.group}" id="${s.group}"></a>`, '');
    else summary.push(`* [${s.title}](${s.folder}/README.md)`);
    if (!s.group) files[`docs/${s.folder}/README.md`] = sectionIndex(s.title, s.folder, s.pages);
    for (const page of s.pages) {
      const nested = page === 'installation';
      const path = nested ? `${s.folder}/${page}/README.md` : `${s.folder}/${page}.md`;
      all.push(path);
      summary.push(`${s.group ? '' : '  '}* [${titleOf(page)}](${path})`);
      if (nested) {
        for (const os of ['linux', 'macos', 'windows']) {
          const child = `${s.folder}/${page}/${os}.md`;
          all.push(child);
          summary.push(`  * [${titleOf(os)}](${child})`);
        }
      }
    }
  }
  for (const path of all) {
    files[`docs/${path}`] = page(path, n++, all);
  }
  files['docs/SUMMARY.md'] = `${summary.join('\n')}\n`;
  files['docs/README.md'] = [
    '---',
    'description: Everything about Acme, from the first deploy to single sign-on.',
    'cover: .gitbook/assets/image (2).png',
    'coverY: 0',
    'layout:',
    '  cover:',
    '    visible: true',
    '    size: full',
    '  title:',
    '    visible: true',
    '---',
    '',
    '# Welcome',
    '',
    '<figure><picture><source srcset=".gitbook/assets/logo-dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/logo.png" alt="Acme"></picture><figcaption></figcaption></figure>',
    '',
    'Acme deploys your apps. Start with the [quickstart](getting-started/quickstart.md).',
    '',
    '{% content-ref url="getting-started/quickstart.md" %}',
    '[quickstart.md](getting-started/quickstart.md)',
    '{% endcontent-ref %}',
    '',
    '{% content-ref url="reference/api/" %}',
    '[api](reference/api/)',
    '{% endcontent-ref %}',
    '',
  ].join('\n');
  files['docs/changelog.md'] = [
    '---',
    'icon: clock-rotate-left',
    'description: What changed, release by release.',
    '---',
    '',
    '# Changelog',
    '',
    '## 2.4.0',
    '',
    '* Faster deploys on large projects.',
    '* New `acme logs --follow` flag. See [acme logs](reference/cli/acme-logs.md#flags).',
    '',
    '## 2.3.0',
    '',
    '1. Roles can be given to teams.',
    '2. Audit log export as CSV.',
    '',
  ].join('\n');
  const out: Record<string, Uint8Array> = {};
  for (const [path, value] of Object.entries(files)) out[path] = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  return out;
}

function titleOf(slug: string): string {
  const t = slug.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function sectionIndex(title: string, folder: string, pages: string[]): string {
  return [
    `# ${title}`,
    '',
    `Everything in ${title.toLowerCase()}.`,
    '',
    ...pages.flatMap((p) => [`{% content-ref url="${p}.md" %}`, `[${p}.md](${p}.md)`, '{% endcontent-ref %}', '']),
  ].join('\n');
}

/** A page with a mix of blocks that depends on its number, so every kind of block shows up in several folders. */
function page(path: string, n: number, all: string[]): string {
  const depth = path.split('/').length - 1;
  const up = '../'.repeat(depth);
  const name = path.split('/').pop()!.replace(/\.md$/, '');
  const title = name === 'README' ? titleOf(path.split('/').slice(-2, -1)[0]!) : titleOf(name);
  const other = all[(n * 7 + 3) % all.length]!;
  const rel = relative(path, other);
  const lines: string[] = [];
  if (n % 3 === 0) lines.push('---', `description: How ${title.toLowerCase()} works in Acme.`, '---', '');
  else if (n % 5 === 1) lines.push('---', 'icon: gear', `description: ${title} for administrators.`, '---', '');
  lines.push(
    `# ${title}`,
    '',
    `This page explains ${title.toLowerCase()}. See also [${titleOf(other.split('/').pop()!.replace(/\.md$/, ''))}](${rel}#overview).`,
    '',
  );
  lines.push('## Overview', '', `${title} is configured per project. Most teams keep the **defaults** and change only the \`region\`.`, '');
  if (n % 4 === 0) lines.push('{% hint style="info" %}', `${title} is available on every plan.`, '{% endhint %}', '');
  if (n % 4 === 1) lines.push('{% hint style="warning" %}', 'Changing this restarts your **running** deployments.', '{% endhint %}', '');
  if (n % 3 === 1) {
    lines.push('{% tabs %}', '{% tab title="macOS" %}', '```bash', 'brew install acme', '```', '{% endtab %}', '');
    lines.push('{% tab title="Linux" %}', '```bash', 'curl -fsSL https://get.acme.dev | sh', '```', '{% endtab %}', '{% endtabs %}', '');
  }
  if (n % 3 === 2) {
    lines.push(
      '| Setting | Default | Description |',
      '| --- | --- | --- |',
      '| `region` | `eu-west` | Where it runs |',
      '| `replicas` | 2 | How many copies |',
      '',
    );
  }
  if (n % 4 === 2) {
    lines.push(
      `<figure><img src="${up}.gitbook/assets/image (1).png" alt=""><figcaption><p>The ${title.toLowerCase()} screen</p></figcaption></figure>`,
      '',
    );
  }
  if (n % 4 === 3)
    lines.push(
      `<figure><img src="${up}.gitbook/assets/Screenshot 2024-05-02 at 10.14.22.png" alt="Settings"><figcaption></figcaption></figure>`,
      '',
    );
  if (n % 6 === 5) lines.push(`<img src="${up}.gitbook/assets/architecture.png" alt="Architecture" width="375">`, '');
  if (n % 5 === 2) {
    lines.push(
      '{% code title="acme.yaml" lineNumbers="true" %}',
      '```yaml',
      'project: shop',
      'region: eu-west',
      'replicas: 2',
      '```',
      '{% endcode %}',
      '',
    );
  } else {
    lines.push('```json', '{', `  "page": ${n}`, '}', '```', '');
  }
  if (path === 'guides/backups.md') {
    lines.push(
      '<details>',
      '',
      `<summary><picture><source srcset="${up}.gitbook/assets/logo-dark.png" media="(prefers-color-scheme: dark)"><img src="${up}.gitbook/assets/logo.png" alt=""></picture> What the logo means</summary>`,
      '',
      'The logo is a rocket.',
      '',
      '</details>',
      '',
    );
  }
  if (n % 7 === 3) lines.push('{% content-ref url="' + rel + '" %}', `[${rel.split('/').pop()}](${rel})`, '{% endcontent-ref %}', '');
  if (path.startsWith('troubleshooting/')) lines.push(`{% include "${up}.gitbook/includes/support.md" %}`, '');
  lines.push(
    '## Next steps',
    '',
    '* Read the [FAQ](' + relative(path, 'troubleshooting/faq.md') + ').',
    `* Ask in [the community](https://community.acme.dev/t/${n}).`,
    '',
  );
  return lines.join('\n');
}

function relative(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  const path = [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
  // git sync links a folder's README as the folder
  return path.endsWith('/README.md') ? path.slice(0, -'README.md'.length) : path;
}
