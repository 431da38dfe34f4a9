export declare const SUPPORTED_RANGE: string;
export declare function nodeVersionProblem(version: string): { fatal: boolean; message: string } | null;
export declare function checkNodeVersion(version?: string): void;
