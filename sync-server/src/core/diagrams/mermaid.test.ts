import { describe, expect, it } from 'vitest';
import { mermaidDiagram, normalizeFlowchart } from './mermaid';

const nodes = (svg: string) => [...svg.matchAll(/<g class="node" data-id="([^"]*)"/g)].map((m) => m[1]).sort();

describe('Mermaid diagrams drawn on the server', () => {
  it('draws flowcharts as Mermaid reads them: semicolons, arrows without spaces, labels left alone', () => {
    for (const source of ['graph TD; A-->B', 'graph TD\n  A-->B;\n  B==>C', 'flowchart LR\n  A[a-->b] -->|x-->y| B(("c;d"))']) {
      const drawn = mermaidDiagram(source, 'light');
      expect(drawn, source).toBeDefined();
      expect(
        nodes(drawn!.svg).every((id) => /^[A-C]$/.test(id as string)),
        source,
      ).toBe(true);
    }
    expect(normalizeFlowchart('flowchart LR\n  A[a-->b] -->|x-->y| B')).toBe('flowchart LR\n  A[a-->b]  --> |x-->y| B');
    expect(mermaidDiagram('graph TD; A-->B', 'light')!.svg).toContain('>B</text>');
  });

  it('gives a self-contained SVG with plain colours per theme, and nothing for kinds it cannot draw', () => {
    const light = mermaidDiagram('sequenceDiagram\n  Alice->>Bob: Hi', 'light')!;
    const dark = mermaidDiagram('sequenceDiagram\n  Alice->>Bob: Hi', 'dark')!;
    for (const d of [light, dark]) {
      expect(d.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(d.svg).not.toMatch(/var\(|color-mix|@import|<style/);
      expect(d.width).toBeGreaterThan(0);
    }
    expect(light.svg).toContain('fill="#1b1c1f"');
    expect(dark.svg).toContain('fill="#e8eaed"');
    expect(mermaidDiagram('pie title Pets\n  "Dogs" : 386', 'light')).toBeUndefined();
    expect(mermaidDiagram('not a diagram', 'light')).toBeUndefined();
  });
});
