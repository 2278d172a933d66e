// The console's stylesheet: system fonts, light/dark, readable at phone width (tables scroll
// sideways inside their box; the nav wraps).
export const CONSOLE_CSS = `
:root{--bg:#f7f7f8;--fg:#1b1d21;--muted:#5d6470;--card:#fff;--line:#d9dce1;--accent:#2754c5;--accent-fg:#fff;
--ok:#1d7a3a;--warn:#8a5a00;--sus:#8d2f9e;--bad:#b3261e;--code:#eef0f3;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e8eb;--muted:#a2a9b4;--card:#1e2125;--line:#343941;
--accent:#8fb0ff;--accent-fg:#0d1320;--ok:#6fd08c;--warn:#f0c060;--sus:#e09af0;--bad:#ff8a80;--code:#2a2e34}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:var(--code);padding:.6rem .8rem;border-radius:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-all;margin:.3rem 0}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem}
.skip:focus{left:.5rem;z-index:10}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem;padding:.6rem 1rem;background:var(--card);border-bottom:1px solid var(--line)}
.brand{font-weight:700;text-decoration:none;color:var(--fg);font-size:1.1rem}
.brand span{color:var(--muted);font-weight:400}
.top nav{flex:1 1 auto;min-width:0}
.top ul{display:flex;flex-wrap:wrap;gap:.2rem .3rem;margin:0;padding:0;list-style:none}
.top nav a{display:block;padding:.3rem .6rem;border-radius:6px;text-decoration:none;color:var(--fg)}
.top nav a:hover{background:var(--code)}
.top nav a[aria-current=page]{background:var(--accent);color:var(--accent-fg)}
.live{font-size:.8rem;color:var(--muted)}
.live::before{content:"○ "}
.live.on{color:var(--ok)}
.live.on::before{content:"● "}
main{max-width:1280px;margin:0 auto;padding:1rem;overflow-wrap:anywhere}
main:focus{outline:none}
h1{font-size:1.4rem;margin:.2rem 0 .8rem;word-break:break-all}
h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
.foot{max-width:1280px;margin:0 auto;padding:1rem;color:var(--muted);font-size:.85rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:0 0 1rem}
.card>h2:first-child{margin-top:0}
.scroll{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:8px;max-width:100%}
.scroll:focus{outline:2px solid var(--accent)}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top;white-space:nowrap}
td.wrap{white-space:normal;min-width:12rem}
td.wrap.narrow{min-width:6rem}
th{font-weight:600;color:var(--muted);font-size:.8rem;text-transform:uppercase;letter-spacing:.03em}
tbody tr:last-child td{border-bottom:0}
tr.new{animation:flash 2s ease-out}
@keyframes flash{from{background:color-mix(in srgb,var(--accent) 25%,transparent)}to{background:transparent}}
.empty{color:var(--muted)}
.emu{display:none}
body.clock-emulated .emu{display:inline;color:var(--muted)}
body.clock-emulated td .emu{display:block;font-size:.75rem}
.clock-badge{font-size:.8rem;color:var(--warn);border:1px solid currentColor;border-radius:999px;padding:0 .5rem}
table.compact{font-size:.85rem}
table.compact th,table.compact td{padding:.4rem .45rem}
td .sub{display:block;font-size:.8rem;color:var(--muted)}
td.brk{white-space:normal;word-break:break-all;min-width:7rem;max-width:11rem}
td.risks{white-space:normal;min-width:7rem;max-width:12rem}
.null{color:var(--muted);font-style:italic}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;border:1px solid currentColor;white-space:nowrap}
.risk-normal{color:var(--ok)}.risk-unwanted{color:var(--warn)}.risk-suspicious{color:var(--sus)}.risk-invalid{color:var(--bad)}
.ev-delivered,.hook-enabled{color:var(--ok)}.ev-retrying{color:var(--warn)}.ev-failed,.hook-disabled{color:var(--bad)}.ev-pending{color:var(--muted)}
.status-2{color:var(--ok)}.status-3{color:var(--warn)}.status-4{color:var(--warn)}.status-5{color:var(--bad)}
form.filter{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:0 0 1rem}
form.filter .grow{flex:1 1 18rem}
label{display:block;font-size:.85rem;color:var(--muted);margin-bottom:.2rem}
input[type=text],input[type=search],input[type=password],input[type=url],select,textarea{width:100%;padding:.45rem .55rem;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);font:inherit}
input:focus,select:focus,textarea:focus,button:focus,a:focus{outline:2px solid var(--accent);outline-offset:1px}
button,.button{display:inline-block;padding:.42rem .8rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);font:inherit;cursor:pointer;text-decoration:none}
button.secondary{background:transparent;color:var(--accent)}
button.danger{background:transparent;color:var(--bad);border-color:var(--bad)}
button:disabled{opacity:.5;cursor:not-allowed}
button.small{padding:.1rem .5rem;font-size:.85rem}
.inline{display:inline}
main>details{margin-top:1rem}
.small{font-size:.85rem}
.actions{display:flex;flex-wrap:wrap;gap:.3rem;margin-top:.5rem}
form.stack{display:grid;gap:.7rem;max-width:48rem}
form.stack p{margin:0}
.check{display:flex;gap:.5rem;align-items:center}
.check label{margin:0;font-size:inherit;color:inherit}
.check input{width:1.1rem;height:1.1rem;margin:0}
.error{border:1px solid var(--bad);color:var(--fg);background:color-mix(in srgb,var(--bad) 10%,var(--card));border-radius:8px;padding:.7rem 1rem;margin:0 0 1rem}
.error pre{background:transparent;padding:.2rem 0;margin:.3rem 0 0;white-space:pre;overflow-x:auto}
.flash{border:1px solid var(--ok);border-radius:8px;padding:.5rem 1rem;background:color-mix(in srgb,var(--ok) 10%,var(--card))}
.pager{display:flex;gap:1rem;margin:.8rem 0}
dl.fields{display:grid;grid-template-columns:minmax(9rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dl.fields dt{color:var(--muted);font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;padding-top:.1rem}
dl.fields dd{margin:0;word-break:break-word}
.keyrow{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.3rem 0}
.keyrow code{background:var(--code);padding:.15rem .4rem;border-radius:4px;word-break:break-all}
.muted{color:var(--muted)}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,22rem),1fr));gap:1rem}
@media (max-width:560px){main{padding:.6rem}.top{padding:.5rem .6rem}h1{font-size:1.2rem}
dl.fields{grid-template-columns:1fr}dl.fields dd{margin-bottom:.4rem}}
`;
