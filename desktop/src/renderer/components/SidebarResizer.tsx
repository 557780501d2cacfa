import { useEffect } from 'react';

const KEY = 'quire.sidebarWidth';
const MIN = 200;
const MAX = 560;

function apply(width: number) {
  document.documentElement.style.setProperty('--sidebar-width', `${width}px`);
}

/**
 * The handle on the sidebar's right edge: drag to resize (double-click resets). The width
 * is a CSS variable set outside React, so dragging re-renders nothing, and it is kept for
 * the next start.
 */
export function SidebarResizer() {
  useEffect(() => {
    const saved = Number(localStorage.getItem(KEY));
    if (saved >= MIN && saved <= MAX) apply(saved);
  }, []);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a separator that can be dragged, as ARIA describes it
    <div
      className="sidebar-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the sidebar"
      tabIndex={0}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        const aside = e.currentTarget.parentElement;
        const now = aside?.getBoundingClientRect().width ?? 280;
        const width = Math.min(MAX, Math.max(MIN, now + (e.key === 'ArrowRight' ? 16 : -16)));
        apply(width);
        localStorage.setItem(KEY, String(width));
      }}
      onDoubleClick={() => {
        document.documentElement.style.removeProperty('--sidebar-width');
        localStorage.removeItem(KEY);
      }}
      onPointerDown={(e) => {
        e.preventDefault();
        const handle = e.currentTarget;
        const left = handle.parentElement?.getBoundingClientRect().left ?? 0;
        handle.setPointerCapture(e.pointerId);
        document.body.classList.add('is-resizing');
        const move = (ev: PointerEvent) => apply(Math.min(MAX, Math.max(MIN, Math.round(ev.clientX - left))));
        const up = (ev: PointerEvent) => {
          handle.removeEventListener('pointermove', move);
          handle.removeEventListener('pointerup', up);
          document.body.classList.remove('is-resizing');
          const width = Math.min(MAX, Math.max(MIN, Math.round(ev.clientX - left)));
          apply(width);
          localStorage.setItem(KEY, String(width));
        };
        handle.addEventListener('pointermove', move);
        handle.addEventListener('pointerup', up);
      }}
    />
  );
}
