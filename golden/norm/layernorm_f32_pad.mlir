entry @layernorm_f32_pad(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>, %arg3: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> tile<16x128xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %10 = make_tensor_view %9, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %11 = make_partition_view %10 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%12, %2] token = %8 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %16 = make_tensor_view %15, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %17 = make_partition_view %16 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %18, %19 = load_view_tko weak %17[%12, %2] token = %14 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %20 = iota : tile<128xi32>
  %21 = reshape %20 : tile<128xi32> -> tile<1x128xi32>
  %22 = constant <i32: 100> : tile<1x128xi32>
  %23 = cmpi less_than %21, %22, signed : tile<1x128xi32> -> tile<1x128xi1>
  %24 = broadcast %23 : tile<1x128xi1> -> tile<16x128xi1>
  %25 = reduce %7 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%26: tile<f32>, %27: tile<f32>) {
    %28 = addf %26, %27  : tile<f32>
    yield %28 : tile<f32>
  }
  %29 = reshape %25 : tile<16xf32> -> tile<16x1xf32>
  %30 = constant <f32: 0.00999999977> : tile<16x1xf32>
  %31 = mulf %29, %30  : tile<16x1xf32>
  %32 = broadcast %31 : tile<16x1xf32> -> tile<16x128xf32>
  %33 = subf %7, %32  : tile<16x128xf32>
  %34 = constant <f32: 0.000000e+00> : tile<16x128xf32>
  %35 = select %24, %33, %34 : tile<16x128xi1>, tile<16x128xf32>
  %36 = mulf %35, %35  : tile<16x128xf32>
  %37 = reduce %36 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%38: tile<f32>, %39: tile<f32>) {
    %40 = addf %38, %39  : tile<f32>
    yield %40 : tile<f32>
  }
  %41 = reshape %37 : tile<16xf32> -> tile<16x1xf32>
  %42 = mulf %41, %30  : tile<16x1xf32>
  %43 = constant <f32: 9.99999974E-6> : tile<16x1xf32>
  %44 = addf %42, %43  : tile<16x1xf32>
  %45 = rsqrt %44 : tile<16x1xf32>
  %46 = broadcast %45 : tile<16x1xf32> -> tile<16x128xf32>
  %47 = mulf %35, %46  : tile<16x128xf32>
  %48 = broadcast %13 : tile<1x128xf32> -> tile<16x128xf32>
  %49 = mulf %47, %48  : tile<16x128xf32>
  %50 = broadcast %18 : tile<1x128xf32> -> tile<16x128xf32>
  %51 = addf %49, %50  : tile<16x128xf32>
  %52 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %53 = make_tensor_view %52, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %54 = make_partition_view %53 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %55 = store_view_tko weak %51, %54[%1, %2] token = %19 : tile<16x128xf32>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> token
  return
}
