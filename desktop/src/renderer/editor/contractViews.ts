import type { NodeViewRenderer } from '@tiptap/core';
import DOMPurify from 'dompurify';
import { askText } from '../components/Prompt';
import type { NodeExtras } from './schema';

/**
 * HTML kept as written (`htmlBlock`, `htmlInline`) is shown as the HTML it is, through
 * DOMPurify's allow-list: no script, event handler, `javascript:` URL, frame or form
 * reaches the window. Double-click edits the source. Math shows its TeX, editable the same way.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
    ALLOW_DATA_ATTR: false,
  });
}

function sourceView(
  tag: 'div' | 'span',
  attr: 'html' | 'tex',
  label: string,
  show: (value: string, el: HTMLElement) => void,
): NodeViewRenderer {
  return ({ node, editor, getPos }) => {
    const dom = document.createElement(tag);
    dom.className = `${tag === 'div' ? 'qe-source-block' : 'qe-source-inline'} qe-${attr}`;
    dom.setAttribute('data-type', node.type.name);
    dom.contentEditable = 'false';
    let current = node;
    const render = () => show(String(current.attrs[attr] ?? ''), dom);
    render();
    dom.title = `${label} (double-click to edit)`;
    dom.addEventListener('dblclick', async (e) => {
      e.preventDefault();
      if (!editor.isEditable || typeof getPos !== 'function') return;
      const value = await askText({ title: label, label: 'Source', value: String(current.attrs[attr] ?? '') });
      if (value === null) return;
      const pos = getPos();
      if (typeof pos === 'number') editor.view.dispatch(editor.state.tr.setNodeAttribute(pos, attr, value));
    });
    return {
      dom,
      update: (next) => {
        if (next.type !== current.type) return false;
        current = next;
        render();
        return true;
      },
    };
  };
}

const showHtml = (value: string, el: HTMLElement) => {
  el.innerHTML = sanitizeHtml(value);
};
const showTex = (value: string, el: HTMLElement) => {
  el.textContent = value;
};

export function contractViewExtras(): NodeExtras {
  return {
    htmlBlock: { name: 'htmlBlock', addNodeView: () => sourceView('div', 'html', 'HTML', showHtml) },
    htmlInline: { name: 'htmlInline', addNodeView: () => sourceView('span', 'html', 'HTML', showHtml) },
    math: { name: 'math', addNodeView: () => sourceView('div', 'tex', 'Math (TeX)', showTex) },
    mathInline: { name: 'mathInline', addNodeView: () => sourceView('span', 'tex', 'Math (TeX)', showTex) },
  };
}
