import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsString,
  Length,
  Matches,
  ValidateIf,
} from 'class-validator';
import { SCOPE_NAMES, type Scope } from '../../../domain/scopes.js';

export const MAX_CLIENT_NAME_LENGTH = 128;
/** C0 controls and DEL: a name is one line of text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f]*$/;

/** Present (not undefined); `null` is then refused by the validators that follow. */
const isGiven = (_object: object, value: unknown): boolean => value !== undefined;

// In the order class-validator checks them; it reports the first that fails.
const NAME_RULES = [
  IsString(),
  Length(1, MAX_CLIENT_NAME_LENGTH),
  Matches(NO_CONTROL_CHARACTERS, { message: 'must not contain control characters' }),
];
const SCOPES_RULES = [
  IsArray(),
  ArrayMinSize(1),
  ArrayMaxSize(SCOPE_NAMES.length),
  ArrayUnique(),
  IsIn(SCOPE_NAMES, { each: true, message: `each must be one of ${SCOPE_NAMES.join(', ')}` }),
];
const NAME_DOC = {
  description: 'What the system is, for its owner to recognise it',
  minLength: 1,
  maxLength: MAX_CLIENT_NAME_LENGTH,
  pattern: '^[^\\x00-\\x1f\\x7f]*$',
  example: 'SAP production',
};
const SCOPES_DOC = {
  enum: SCOPE_NAMES,
  isArray: true,
  minItems: 1,
  maxItems: SCOPE_NAMES.length,
  uniqueItems: true,
  description: 'What its tokens may do',
  example: ['processes:read', 'changes:read'],
};

export class CreateClientRequestDto {
  @ApiProperty(NAME_DOC)
  @applyDecorators(IsDefined({ message: 'is required' }), ...NAME_RULES)
  name!: string;

  @ApiProperty(SCOPES_DOC)
  @applyDecorators(IsDefined({ message: 'is required' }), ...SCOPES_RULES)
  scopes!: Scope[];
}

export class UpdateClientRequestDto {
  @ApiPropertyOptional(NAME_DOC)
  @applyDecorators(ValidateIf(isGiven), ...NAME_RULES)
  name?: string;

  @ApiPropertyOptional({
    ...SCOPES_DOC,
    description: 'What its tokens may do from now on (tokens already issued lose what is taken away)',
  })
  @applyDecorators(ValidateIf(isGiven), ...SCOPES_RULES)
  scopes?: Scope[];
}
