// lib/browser's surface: what other folders import from it (its files import each other directly).
export * from "./client";
