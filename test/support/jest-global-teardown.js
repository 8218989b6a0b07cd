module.exports = require('./jest-tmpdir').teardown;
