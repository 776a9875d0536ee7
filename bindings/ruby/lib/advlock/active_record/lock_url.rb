# frozen_string_literal: true

module Advlock
  module ActiveRecord
    # The URL of the drop-in's lock session, from a model's database
    # configuration: the same server and account the model uses, on a
    # connection of advlock's own (the gem uses a pool connection instead).
    module LockUrl
      MYSQL_ADAPTERS = %w[mysql2 trilogy].freeze
      POSTGRESQL_ADAPTERS = %w[postgresql postgis].freeze

      module_function

      # config: a model's connection_db_config.configuration_hash (or any
      # Hash with the same keys). Raises Unsupported for other adapters,
      # naming the adapter (set Advlock::ActiveRecord.url to lock elsewhere).
      def for_config(config)
        config = config.to_h.transform_keys(&:to_sym)
        adapter = config[:adapter].to_s
        return mysql_url(config) if MYSQL_ADAPTERS.include?(adapter)
        return conninfo(config) if POSTGRESQL_ADAPTERS.include?(adapter)

        raise Unsupported, "with_advisory_lock on advlock: the #{adapter.inspect} adapter has no advisory locks " \
                           "advlock can take (it takes #{(POSTGRESQL_ADAPTERS + MYSQL_ADAPTERS).join(', ')}); " \
                           "set Advlock::ActiveRecord.url to a postgresql://, mysql:// or local URL"
      end

      def mysql?(url) = url.to_s.match?(%r{\A(mysql|mariadb)://}i)

      # mysql://USER:PASSWORD@HOST:PORT/DATABASE?socket=PATH: what mysql2 and
      # trilogy connect with. Without a password in the configuration, none in
      # the URL: advlock then reads ~/.my.cnf or MYSQL_PWD, as the mysql client.
      def mysql_url(config)
        user = config[:username]
        password = config[:password]
        credentials = if user.nil? && password.nil? then ""
                      else "#{escape(user.to_s)}#{":#{escape(password.to_s)}" unless password.nil?}@"
                      end
        host = config[:host].to_s
        host = "[#{host}]" if host.include?(":") # IPv6
        port = config[:port].nil? ? "" : ":#{Integer(config[:port])}"
        query = { socket: config[:socket], connect_timeout: config[:connect_timeout] }.compact
                                                                                      .map { |k, v| "#{k}=#{escape(v.to_s)}" }
        "mysql://#{credentials}#{escape_host(host)}#{port}/#{escape(config[:database].to_s)}" \
          "#{"?#{query.join('&')}" unless query.empty?}"
      end

      # A libpq conninfo: host, port, dbname, user, password, sslmode.
      def conninfo(config)
        {
          host: config[:host], port: config[:port], dbname: config[:database], user: config[:username],
          password: config[:password], sslmode: config[:sslmode]
        }.compact.map { |name, value| "#{name}='#{value.to_s.gsub(/['\\]/) { |c| "\\#{c}" }}'" }.join(" ")
      end

      # Percent-encodes all but RFC 3986's unreserved characters (advlock
      # decodes %XX; a "+" stays a "+").
      def escape(text) = text.to_s.b.gsub(/[^A-Za-z0-9\-._~]/n) { |c| format("%%%02X", c.ord) }

      def escape_host(host) = host.start_with?("[") ? host : escape(host)
    end
  end
end
