/**
 * The few parts of `@natlibfi/marc-record` and `@natlibfi/marc-record-serializers` (test-only
 * dependencies, shipped without types) that the MARCXML tests use to parse and validate records.
 */
declare module "@natlibfi/marc-record" {
  export interface MarcValidationOptions {
    strict?: boolean;
    leader?: boolean;
    characters?: boolean;
    noControlCharacters?: boolean;
    noAdditionalProperties?: boolean;
  }
  export interface MarcSubfield {
    code: string;
    value?: string;
  }
  export interface MarcField {
    tag: string;
    ind1?: string;
    ind2?: string;
    value?: string;
    subfields?: MarcSubfield[];
  }
  export class MarcRecord {
    constructor(record?: unknown, validationOptions?: MarcValidationOptions);
    leader: string;
    fields: MarcField[];
    get(query: string | RegExp): MarcField[];
    static clone(record: MarcRecord, validationOptions?: MarcValidationOptions): MarcRecord;
  }
}

declare module "@natlibfi/marc-record-serializers" {
  import type { MarcRecord, MarcValidationOptions } from "@natlibfi/marc-record";
  export const MARCXML: {
    from(xml: string, validationOptions?: MarcValidationOptions): Promise<MarcRecord>;
  };
}
