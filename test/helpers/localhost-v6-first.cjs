// Preloaded (NODE_OPTIONS=--require) into `vtr serve` to play a machine whose resolver answers ::1
// first for localhost, as many do: listen('localhost') then binds ::1 alone.
const dns = require('node:dns');
const lookup = dns.lookup;
dns.lookup = function (host, opts, cb) {
  if (typeof opts === 'function') [cb, opts] = [opts, {}];
  if (typeof opts === 'number') opts = { family: opts };
  if (String(host).toLowerCase().replace(/\.$/, '') !== 'localhost') return lookup.call(this, host, opts, cb);
  const all = [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }].filter((a) => !opts.family || a.family === opts.family);
  process.nextTick(() => (opts.all ? cb(null, all) : cb(null, all[0].address, all[0].family)));
};
