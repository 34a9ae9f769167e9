export declare const REGION_MARKER: string;
export declare const PRERENDER_FILE: string;
export declare const SERVER_RENDER_FILE: string;
export declare function styleBlock(name: string, css: string, ids?: string[]): string;
