// MathJax 3's configuration for pymdownx.arithmatex (generic mode): it typesets the \[...\] and \(...\)
// that arithmatex leaves in elements of class "arithmatex", and nothing else of the page. Read before
// MathJax itself loads (mkdocs.yml lists this file first).
window.MathJax = {
  // without noundefined, an unknown command is an error (typeset as one), not red text that passes for TeX
  tex: { inlineMath: [["\\(", "\\)"]], displayMath: [["\\[", "\\]"]], processEscapes: true, processEnvironments: true,
         packages: { "[-]": ["noundefined"] } },
  options: { ignoreHtmlClass: ".*|", processHtmlClass: "arithmatex" },
  svg: { fontCache: "global" }
};
