import { ExtractJwt } from 'passport-jwt';

/** The request's `Authorization: Bearer` token, or null: the one place a token is read from. */
export const bearerTokenOf = ExtractJwt.fromAuthHeaderAsBearerToken();
