import { en, type Messages } from './en';
import { language, type Language } from './language';
import { ptBR } from './pt-BR';

export const CATALOGUES: Record<Language, Messages> = { en, 'pt-BR': ptBR };

/** The words of the language chosen now: read them when drawing, never keep them. */
export function t(): Messages {
  return CATALOGUES[language()];
}
