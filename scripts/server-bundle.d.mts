export declare const distDir: string;
export declare const serverBundle: string;
