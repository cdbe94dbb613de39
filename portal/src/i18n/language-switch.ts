import { byId } from '../dom';
import {
  initialLanguage,
  isLanguage,
  LANGUAGE_STORAGE_KEY,
  language,
  onLanguageChange,
  setLanguage,
} from './language';
import { translatePage } from './page';

/** The stored choice, where the browser lets the page keep one (not in every private mode). */
function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeLanguage(chosen: string): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, chosen);
  } catch {
    // Not kept: the next visit starts from the browser's languages again.
  }
}

/**
 * Starts the page in the language chosen before or the browser's, and follows the language
 * control: the static page, `<html lang>` and every listener's view follow each change.
 */
export function followLanguage(): void {
  const control = byId<HTMLSelectElement>('language');
  const show = () => {
    document.documentElement.lang = language();
    control.value = language();
    translatePage();
  };
  setLanguage(initialLanguage(storedLanguage(), navigator.languages));
  show();
  onLanguageChange(show);
  control.addEventListener('change', () => {
    if (!isLanguage(control.value)) return;
    storeLanguage(control.value);
    setLanguage(control.value);
  });
}
