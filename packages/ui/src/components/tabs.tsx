import { css, type Theme } from '@emotion/react';
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface TabItem {
  id: string;
  label: ReactNode;
}

/** WAI-ARIA tabs: arrow keys move between tabs, the selected tab is the only one in the tab order. */
export function Tabs({
  items,
  selected,
  onSelect,
  label,
  children,
}: {
  items: readonly TabItem[];
  selected: string;
  onSelect: (id: string) => void;
  label: string;
  children: ReactNode;
}) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = (index + delta + items.length) % items.length;
    const item = items[next];
    if (item) {
      onSelect(item.id);
      refs.current[next]?.focus();
    }
  };
  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        css={(t: Theme) => css`
          display: flex;
          gap: ${t.space(1)};
          border-bottom: 1px solid ${t.color.border};
          margin-bottom: ${t.space(5)};
          overflow-x: auto;
        `}
      >
        {items.map((item, index) => {
          const isSelected = item.id === selected;
          return (
            <button
              key={item.id}
              ref={(el) => {
                refs.current[index] = el;
              }}
              role="tab"
              type="button"
              id={`${base}-tab-${item.id}`}
              aria-selected={isSelected}
              aria-controls={`${base}-panel`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(item.id)}
              onKeyDown={(e) => onKeyDown(e, index)}
              css={(t: Theme) => css`
                display: inline-flex;
                gap: ${t.space(2)};
                align-items: center;
                padding: ${t.space(3)} ${t.space(4)};
                border: none;
                border-bottom: 3px solid ${isSelected ? t.color.primary : 'transparent'};
                background: none;
                color: ${isSelected ? t.color.primary : t.color.textMuted};
                font: inherit;
                font-weight: 600;
                cursor: pointer;
                white-space: nowrap;
                /* On a phone every tab stays on screen: they share the row and a long label wraps. */
                @media (max-width: 640px) {
                  flex: 1 1 0;
                  min-width: 0;
                  justify-content: center;
                  padding: ${t.space(3)} ${t.space(2)};
                  white-space: normal;
                  text-align: center;
                }
              `}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: WAI-ARIA tabs pattern: the panel is focusable so keyboard users reach its content. */}
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
