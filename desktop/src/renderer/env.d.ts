/** Stylesheets are bundled by Vite; importing one only applies it. */
declare module '*.css';
