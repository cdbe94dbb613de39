import type { CustomsChannel, DeclarationType } from './process.vocabulary.js';
import type { Instant } from './time.js';

/** The CE-Mercante (the merchant-navy bill of lading record) of a sea import: 15-digit numbers. */
export interface CeMercante {
  master: string;
  house: string | null;
}

/** The customs declaration of a process and where clearance stands. */
export interface CustomsDeclaration {
  declarationType: DeclarationType;
  /** As Siscomex writes it: DI `yy/nnnnnnn-d`, DUIMP and DU-E `yyBRnnnnnnnnnn-d`. */
  declarationNumber: string;
  registeredAt: Instant;
  /** The parametrisation channel; null until assigned. */
  channel: CustomsChannel | null;
  channelAssignedAt: Instant | null;
  clearedAt: Instant | null;
  /** Sea imports only. */
  ceMercante: CeMercante | null;
}
