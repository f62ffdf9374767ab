module github.com/agent-knock-knock/akk/bench

go 1.26

replace github.com/agent-knock-knock/akk => ../
