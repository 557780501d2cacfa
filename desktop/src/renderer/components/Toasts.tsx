import { useEffect, useState } from 'react';
import { Icon } from './Icons';

interface Toast {
  id: number;
  level: 'info' | 'error';
  message: string;
}

let push: ((t: Omit<Toast, 'id'>) => void) | undefined;
let counter = 0;

/** Shows a short message in the corner; errors stay until dismissed. */
export function notify(level: Toast['level'], message: string) {
  push?.({ level, message });
}

export function ToastHost() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    push = (t) => {
      const id = ++counter;
      setToasts((all) => [...all.filter((x) => x.message !== t.message).slice(-3), { ...t, id }]);
      if (t.level === 'info') setTimeout(() => setToasts((all) => all.filter((x) => x.id !== id)), 4000);
    };
    return () => {
      push = undefined;
    };
  }, []);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.level}`} role={t.level === 'error' ? 'alert' : 'status'}>
          <Icon name={t.level === 'error' ? 'warning' : 'info'} size={16} />
          <span>{t.message}</span>
          <button
            type="button"
            className="icon-btn"
            aria-label="Dismiss"
            onClick={() => setToasts((all) => all.filter((x) => x.id !== t.id))}
          >
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
