// The part of negotiator 0.6.4 the app uses (DefinitelyTyped's types lack `preferred`).
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The client's accepted encodings among `available`, its preference first; ties go to the order of `preferred`. */
    encodings(available?: readonly string[], preferred?: readonly string[]): string[];
  }
}
