"use client";

export { default } from "../(dashboard)/error";
