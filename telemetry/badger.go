package telemetry

import (
	"github.com/dgraph-io/badger/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// BadgerDB is what BadgerCollector reads from the database; *badger.DB
// satisfies it. Both methods must be safe to call concurrently with reads
// and writes, as Badger's are.
type BadgerDB interface {
	// Size returns the bytes of the LSM tree and of the value log. Badger
	// refreshes these figures about once a minute, and reports 0 for an
	// in-memory database.
	Size() (lsm, vlog int64)
	// Levels describes each level of the LSM tree.
	Levels() []badger.LevelInfo
}

var _ BadgerDB = (*badger.DB)(nil)

// BadgerCollector is a prometheus.Collector reporting the size of a Badger
// database and its compaction backlog, read at scrape time.
type BadgerCollector struct {
	db      BadgerDB
	lsm     *prometheus.Desc
	vlog    *prometheus.Desc
	pending *prometheus.Desc
}

var _ prometheus.Collector = (*BadgerCollector)(nil)

// NewBadgerCollector returns a collector for db. Register it once per
// database.
func NewBadgerCollector(db BadgerDB) *BadgerCollector {
	return &BadgerCollector{
		db: db,
		lsm: prometheus.NewDesc(namespace+"_badger_lsm_bytes",
			"Size of Badger's LSM tree in bytes, as last computed by Badger (about once a minute).", nil, nil),
		vlog: prometheus.NewDesc(namespace+"_badger_vlog_bytes",
			"Size of Badger's value log in bytes, as last computed by Badger (about once a minute).", nil, nil),
		pending: prometheus.NewDesc(namespace+"_badger_pending_compactions",
			"LSM levels over their compaction threshold (compaction score >= 1), i.e. that Badger would compact now.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *BadgerCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.lsm
	ch <- c.vlog
	ch <- c.pending
}

// Collect implements prometheus.Collector.
func (c *BadgerCollector) Collect(ch chan<- prometheus.Metric) {
	lsm, vlog := c.db.Size()
	ch <- prometheus.MustNewConstMetric(c.lsm, prometheus.GaugeValue, float64(lsm))
	ch <- prometheus.MustNewConstMetric(c.vlog, prometheus.GaugeValue, float64(vlog))
	ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(pendingCompactions(c.db.Levels())))
}

// pendingCompactions counts the levels Badger would pick for compaction.
// Badger's LevelInfo.Score is set only for those levels and is >= 1 exactly
// then: for L0, tables / NumLevelZeroTables; for the other levels, size
// (less what is already being compacted) / target size. It is a count of
// levels, not of tables or bytes: 0 means compaction keeps up.
func pendingCompactions(levels []badger.LevelInfo) int {
	n := 0
	for _, l := range levels {
		if l.Score >= 1 {
			n++
		}
	}
	return n
}
