export declare const THEME_STORAGE_KEY: 'theme';
export declare const THEME_CSS: string;
export declare const THEME_BOOT_SCRIPT: string;
export declare const TOKEN_NAMES: string[];
