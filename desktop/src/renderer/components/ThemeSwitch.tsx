import { useEffect, useState } from 'react';
import { type ThemeChoice, onThemeChange, setThemeChoice, themeChoice } from './theme';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** System / Light / Dark, as one segmented control. */
export function ThemeSwitch() {
  const [choice, setChoice] = useState(themeChoice);
  useEffect(() => onThemeChange(() => setChoice(themeChoice())), []);
  return (
    <div className="theme-switch-row">
      <span id="appearance-label">Appearance</span>
      <div className="segmented" role="radiogroup" aria-labelledby="appearance-label">
        {CHOICES.map((c) => (
          <button
            key={c.value}
            type="button"
            role="radio"
            aria-checked={choice === c.value}
            className={choice === c.value ? 'is-on' : ''}
            onClick={() => setThemeChoice(c.value)}
          >
            {c.label}
          </button>
        ))}
      </div>
    </div>
  );
}
