// A secret or token one character off, for tests that it is refused: the last character replaced by another of the
// base64url alphabet, never by itself (a test that "changed" an x into an x would pass a key it meant to refuse).
export const oneCharacterOff = (text: string): string => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
