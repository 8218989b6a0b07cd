module.exports = require('./jest-tmpdir').setup;
