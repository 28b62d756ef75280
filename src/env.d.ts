/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** The live catalog, passed in by the Node adapter to on-demand pages (search results). */
    catalog?: import('./catalog/catalog.ts').Catalog;
  }
}
