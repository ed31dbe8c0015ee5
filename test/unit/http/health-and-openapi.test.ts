import { expect } from 'chai';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

describe('http kit: health, readiness and the OpenAPI document', () => {
  let api: ToyApi;
  before(async () => {
    api = await startToyApi();
  });
  after(() => api.close());

  it('answers /health without a key', async () => {
    const res = await call(api, 'GET', '/health', { key: null });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
  });

  it('answers /ready with 200 or 503 as the health check says', async () => {
    expect((await call(api, 'GET', '/ready', { key: null })).status).to.equal(200);
    api.ready.value = false;
    const notReady = await call(api, 'GET', '/ready', { key: null });
    api.ready.value = true;
    expect(notReady.status).to.equal(503);
    expect(notReady.body).to.deep.equal({ status: 'not_ready' });
  });

  describe('/openapi.json', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document read in tests
    let doc: any;
    before(async () => {
      const res = await call(api, 'GET', '/openapi.json', { key: null });
      expect(res.status).to.equal(200);
      doc = res.body;
    });

    it('is an OpenAPI 3.1 document with every route, paths in braces', () => {
      expect(doc.openapi).to.equal('3.1.0');
      expect(doc.info).to.deep.equal({ title: 'Toy API', version: '1.0.0' });
      expect(Object.keys(doc.paths)).to.have.members(['/widgets', '/widgets/{widgetId}', '/pings', '/flaky']);
      expect(Object.keys(doc.paths['/widgets'])).to.have.members(['get', 'post']);
      expect(Object.keys(doc.paths['/widgets/{widgetId}'])).to.have.members(['get', 'delete']);
    });

    it('documents parameters, both body encodings, and the 200 and error responses', () => {
      const retrieve = doc.paths['/widgets/{widgetId}'].get;
      expect(retrieve.parameters).to.deep.include.members([
        {
          name: 'widgetId',
          in: 'path',
          required: true,
          schema: retrieve.parameters[0].schema,
          description: 'Identifier starting with wid_',
        },
      ]);
      expect(doc.paths['/widgets/{widgetId}'].delete.parameters[0]).to.include({
        name: 'widgetId',
        in: 'path',
        required: true,
      });

      const list = doc.paths['/widgets'].get;
      const created = list.parameters.find((parameter: { name: string }) => parameter.name === 'created');
      expect(created).to.include({ in: 'query', style: 'deepObject', explode: true });
      const limit = list.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
      expect(limit.schema).to.include({ type: 'integer', minimum: 1, maximum: 100, default: 10 });

      const create = doc.paths['/widgets'].post;
      expect(Object.keys(create.requestBody.content)).to.have.members([
        'application/json',
        'application/x-www-form-urlencoded',
      ]);
      const body = create.requestBody.content['application/json'].schema;
      expect(body.required).to.include.members(['amount', 'currency']);
      expect(body.additionalProperties).to.equal(false);
      expect(body.properties.amount).to.include({ type: 'integer', minimum: 1 });
      expect(create.parameters).to.deep.include({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: create.parameters[0].schema,
        description: create.parameters[0].description,
      });

      expect(create.responses['200'].content['application/json'].schema).to.deep.equal({
        $ref: '#/components/schemas/Widget',
      });
      for (const status of ['400', '401', '402', '404', '429', '500']) {
        expect(create.responses[status].content['application/json'].schema, status).to.deep.equal({
          $ref: '#/components/schemas/Error',
        });
      }
      expect(create.responses['409'].content['application/json'].schema).to.deep.equal({
        $ref: '#/components/schemas/Error',
      });
      expect(retrieve.responses).not.to.have.property('409');
      expect(create.security).to.deep.equal([{ basicAuth: [] }, { bearerAuth: [] }]);
      expect(create.tags).to.deep.equal(['Widgets']);
      expect(create.summary).to.equal('Create a widget');
    });

    it('registers named schemas once, the error envelope and the security schemes', () => {
      expect(Object.keys(doc.components.schemas)).to.include.members(['Widget', 'Error']);
      expect(doc.components.schemas.Error.properties.error.properties.type.enum).to.have.members([
        'invalid_request',
        'card_error',
        'gateway_error',
        'rate_limit_error',
      ]);
      expect(doc.components.securitySchemes.basicAuth).to.include({ type: 'http', scheme: 'basic' });
      expect(doc.components.securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
    });
  });
});
