import { useEffect, useRef, useState } from 'react';
import { useEscape } from './escape';

interface PromptRequest {
  title: string;
  label: string;
  value?: string;
  placeholder?: string;
  confirm?: string;
  /** A question without a text field (confirmations). */
  noInput?: boolean;
  danger?: boolean;
  resolve: (value: string | null) => void;
}

let show: ((req: PromptRequest) => void) | undefined;

/**
 * Asks the user for one line of text in an in-app dialog (Electron has no `prompt()`).
 * Resolves with the text, or null when cancelled.
 */
export function askText(opts: Omit<PromptRequest, 'resolve'>): Promise<string | null> {
  return new Promise((resolve) => {
    if (!show) return resolve(null);
    show({ ...opts, resolve });
  });
}

/** Asks a yes/no question; resolves true on confirm. */
export async function confirmAction(title: string, label: string, confirm = 'Confirm', danger = false): Promise<boolean> {
  return (await askText({ title, label, confirm, noInput: true, danger })) !== null;
}

/** Mounted once at the root: renders whichever question is pending. */
export function PromptHost() {
  const [req, setReq] = useState<PromptRequest | null>(null);
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEscape(
    !!req &&
      (() => {
        req.resolve(null);
        setReq(null);
      }),
  );
  useEffect(() => {
    show = (r) => {
      setReq(r);
      setValue(r.value ?? '');
    };
    return () => {
      show = undefined;
    };
  }, []);
  useEffect(() => {
    if (req && !req.noInput) setTimeout(() => input.current?.select(), 0);
  }, [req]);
  if (!req) return null;
  const finish = (result: string | null) => {
    req.resolve(result);
    setReq(null);
  };
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && finish(null)}>
      <form
        className="modal"
        role="dialog"
        aria-label={req.title}
        onSubmit={(e) => {
          e.preventDefault();
          finish(req.noInput ? '' : value);
        }}
      >
        <h2>{req.title}</h2>
        {req.noInput ? (
          <p className="modal-text">{req.label}</p>
        ) : (
          <label className="field">
            <span>{req.label}</span>
            <input ref={input} value={value} placeholder={req.placeholder} onChange={(e) => setValue(e.target.value)} />
          </label>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => finish(null)}>
            Cancel
          </button>
          <button type="submit" className={`btn ${req.danger ? 'btn-danger' : 'btn-primary'}`} autoFocus={req.noInput}>
            {req.confirm ?? 'Save'}
          </button>
        </div>
      </form>
    </div>
  );
}
