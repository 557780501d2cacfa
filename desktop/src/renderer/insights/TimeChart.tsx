import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { onThemeChange } from '../components/theme';

/** The theme's colours, read when the chart is drawn (and drawn again when the theme changes). */
function colours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return { views: v('--accent'), visitors: v('--green'), grid: v('--border'), text: v('--muted') };
}

/** Page views and visitors per day, as lines over the range (uPlot: small, canvas, no DOM per point). */
export function TimeChart({ daily }: { daily: { day: string; views: number; visitors: number }[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    const draw = () => {
      plot?.destroy();
      const c = colours();
      const axis = { stroke: c.text, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 } };
      plot = new uPlot(
        {
          width: Math.max(el.clientWidth, 200),
          height: 220,
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
          axes: [axis, { ...axis, size: 44 }],
          series: [
            {},
            { label: 'Page views', stroke: c.views, width: 2, fill: `${c.views}22`, points: { show: daily.length <= 31 } },
            { label: 'Visitors', stroke: c.visitors, width: 2, points: { show: daily.length <= 31 } },
          ],
        },
        [daily.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000), daily.map((d) => d.views), daily.map((d) => d.visitors)],
        el,
      );
    };
    draw();
    const resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(el.clientWidth, 200), height: 220 }));
    resize.observe(el);
    const off = onThemeChange(draw);
    return () => {
      off();
      resize.disconnect();
      plot?.destroy();
    };
  }, [daily]);
  return <div ref={box} className="insights-chart" data-testid="insights-chart" />;
}
