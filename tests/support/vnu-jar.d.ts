/** The vnu-jar package's main export: the path of the Nu HTML checker's jar (run with `java -jar`). */
declare module "vnu-jar" {
  const jarPath: string;
  export default jarPath;
}
