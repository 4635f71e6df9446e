// Values of a test file that its hooks fill in.

/**
 * A value that a beforeAll fills in, readable as if it were there from the start: reading it earlier (at a test
 * file's top level, say) throws instead of answering undefined.
 */
export function late<T extends object>(what: string, current: () => T | undefined): T {
  const value = () => {
    const found = current();
    if (!found) throw new Error(`${what} is not ready: read it inside a test or a hook, not while the file loads`);
    return found;
  };
  return new Proxy({} as T, {
    get: (_, property) => {
      const found = value() as Record<PropertyKey, unknown>;
      const member = found[property];
      return typeof member === 'function' ? member.bind(found) : member;
    },
    has: (_, property) => property in value(),
    ownKeys: () => Reflect.ownKeys(value()),
    getOwnPropertyDescriptor: (_, property) => Reflect.getOwnPropertyDescriptor(value(), property),
  });
}
