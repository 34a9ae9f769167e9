import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
  vi.mocked(Element.prototype.scrollIntoView).mockClear();
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom has no layout, so no scrollIntoView; the survey calls it to bring a field's error into view.
Element.prototype.scrollIntoView = vi.fn();
