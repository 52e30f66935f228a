console.log('bullpen', process.version);
